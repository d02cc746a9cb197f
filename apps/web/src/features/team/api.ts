import {
  deleteTeamInvitation,
  deleteTeamMember,
  getTeam,
  patchTeamMember,
  postInvitationAccept,
  postInvitationLookup,
  postTeamInvitation,
  postTeamInvitationResend,
  type InvitationAccept,
  type PermissionLevel,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export const teamKeys = { team: ["team"] as const };

export const teamApi = {
  team: () => call(getTeam),
  invite: (email: string, permissionLevel: PermissionLevel) => call(postTeamInvitation, { body: { email, permissionLevel } }),
  resend: (id: string) => call(postTeamInvitationResend, { params: { id } }),
  revoke: (id: string) => call(deleteTeamInvitation, { params: { id } }),
  setLevel: (id: string, permissionLevel: PermissionLevel) => call(patchTeamMember, { params: { id }, body: { permissionLevel } }),
  remove: (id: string) => call(deleteTeamMember, { params: { id } }),
  lookup: (token: string) => call(postInvitationLookup, { body: { token } }),
  accept: (body: InvitationAccept) => call(postInvitationAccept, { body }),
};

export function useTeam() {
  return useQuery({ queryKey: teamKeys.team, queryFn: teamApi.team });
}

/** A team change, then the team is read again (levels and invitations change together). */
export function useTeamMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: teamKeys.team }) });
}
