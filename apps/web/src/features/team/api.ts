import {
  invitationPreviewSchema,
  invitationSchema,
  teamSchema,
  tokenResponseSchema,
  type InvitationAccept,
  type PermissionLevel,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";

export const teamKeys = { team: ["team"] as const };

export const teamApi = {
  team: () => api("/team", { schema: teamSchema }),
  invite: (email: string, permissionLevel: PermissionLevel) =>
    api("/team/invitations", { method: "POST", body: { email, permissionLevel }, schema: invitationSchema }),
  resend: (id: string) => api(`/team/invitations/${id}/resend`, { method: "POST", schema: invitationSchema }),
  revoke: (id: string) => api(`/team/invitations/${id}`, { method: "DELETE" }),
  setLevel: (id: string, permissionLevel: PermissionLevel) =>
    api(`/team/members/${id}`, { method: "PATCH", body: { permissionLevel }, schema: teamSchema }),
  remove: (id: string) => api(`/team/members/${id}`, { method: "DELETE" }),
  lookup: (token: string) => api("/invitations/lookup", { method: "POST", body: { token }, schema: invitationPreviewSchema }),
  accept: (body: InvitationAccept) => api("/invitations/accept", { method: "POST", body, schema: tokenResponseSchema }),
};

export function useTeam() {
  return useQuery({ queryKey: teamKeys.team, queryFn: teamApi.team });
}

/** A team change, then the team is read again (levels and invitations change together). */
export function useTeamMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: teamKeys.team }) });
}
