import { endpoint, errorBodySchema } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bearer, docsOf, routeOf } from "./endpoint.ts";

const params = z.object({ realmId: z.string() });
const query = z.object({ month: z.string() });
const body = z.object({ name: z.string() });
const answer = z.object({ ok: z.boolean() });

const full = endpoint({ method: "PUT", path: "/things/:realmId", params, query, body, responses: { 200: answer, 202: answer } });
const bare = endpoint({ method: "POST", path: "/things/logout", responses: { 204: null } });
const download = endpoint({ method: "GET", path: "/things/export", responses: { 200: "file" } });

describe("routeOf", () => {
  it("registers the endpoint's own method, path and request schemas, with the server's prose", () => {
    const route = routeOf(full, { tags: ["things"], summary: "Save a thing", description: "Longer words.", security: bearer, errors: [400, 404] });
    expect(route.method).toBe("PUT");
    expect(route.url).toBe("/things/:realmId");
    expect(route.schema).toMatchObject({ tags: ["things"], summary: "Save a thing", description: "Longer words.", security: [{ bearer: [] }] });
    expect(route.schema.params).toBe(params);
    expect(route.schema.querystring).toBe(query);
    expect(route.schema.body).toBe(body);
  });

  it("serializes each success status with its schema and each declared error status with the error body", () => {
    const { response } = routeOf(full, { tags: [], summary: "", errors: [400, 404] }).schema;
    expect(Object.keys(response).map(Number).sort()).toEqual([200, 202, 400, 404]);
    expect(response[200]).toBe(answer);
    expect(response[202]).toBe(answer);
    expect(response[400]).toBe(errorBodySchema);
    expect(response[404]).toBe(errorBodySchema);
  });

  it("a 204 sends null and a file is sent as it is", () => {
    const none = routeOf(bare, { tags: [], summary: "" }).schema.response[204];
    expect(none.safeParse(null).success).toBe(true);
    expect(none.safeParse({}).success).toBe(false);
    const file = routeOf(download, { tags: [], summary: "" }).schema.response[200];
    for (const sent of [Buffer.from("PK"), "a,b\n1,2", null]) expect(file.safeParse(sent).success).toBe(true);
  });

  it("leaves out what the endpoint or the prose does not have: absent keys, not undefined ones (Fastify walks the keys)", () => {
    const { schema } = routeOf(bare, { tags: ["session"], summary: "Log out" });
    expect(Object.keys(schema).sort()).toEqual(["response", "summary", "tags"]);
    expect(Object.keys(routeOf(bare, { tags: [], summary: "", errors: [] }).schema.response)).toEqual(["204"]);
  });
});

describe("docsOf", () => {
  const docs = docsOf({ tags: ["things"], security: bearer, errors: [400, 404] });

  it("gives each route of a module the module's tags, security and errors, with its own summary", () => {
    expect(docs("Save a thing")).toEqual({ tags: ["things"], security: bearer, errors: [400, 404], summary: "Save a thing" });
    expect(routeOf(full, docs("Save a thing")).schema).toEqual(
      routeOf(full, { tags: ["things"], summary: "Save a thing", security: bearer, errors: [400, 404] }).schema,
    );
  });

  it("takes a route's description, and its errors where they differ from the module's", () => {
    expect(docs("Save a thing", { description: "Longer words." }).description).toBe("Longer words.");
    const { response } = routeOf(full, docs("Save a thing", { errors: [409] })).schema;
    expect(Object.keys(response).map(Number).sort()).toEqual([200, 202, 409]);
  });

  it("leaves security out for a module's public routes", () => {
    const { schema } = routeOf(bare, docsOf({ tags: ["session"] })("Log out"));
    expect(Object.keys(schema).sort()).toEqual(["response", "summary", "tags"]);
  });
});
