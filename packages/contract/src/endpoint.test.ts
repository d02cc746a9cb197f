import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  DELETE,
  endpoint,
  GET,
  isEndpoint,
  noContent,
  paramNames,
  pathOf,
  POST,
  successOf,
  type DownloadedFile,
  type EndpointInput,
  type EndpointOutput,
} from "./endpoint.ts";

const accounts = endpoint({
  method: "GET",
  path: "/companies/:realmId/accounts/:month",
  params: z.object({ realmId: z.string(), month: z.string() }),
  query: z.object({ from: z.string().optional(), ids: z.array(z.string()).optional(), n: z.number().optional() }),
  responses: { 200: z.array(z.object({ id: z.string() })) },
});
const created = endpoint({ method: "POST", path: "/things", body: z.object({ name: z.string() }), responses: { 201: z.object({ id: z.string() }) } });
const removed = endpoint({ method: "DELETE", path: "/things/:id", params: z.object({ id: z.string() }), responses: { 204: null } });
const download = endpoint({ method: "GET", path: "/report.xlsx", responses: { 200: "file" } });

describe("endpoint declarations", () => {
  it("builds a call's path from its params, encoded, and its query, skipping what is unset", () => {
    expect(pathOf(accounts, { params: { realmId: "93 45/6", month: "2024-01" }, query: { from: "a&b", n: 0 } })).toBe(
      "/companies/93%2045%2F6/accounts/2024-01?from=a%26b&n=0",
    );
    expect(pathOf(accounts, { params: { realmId: "1", month: "m" }, query: { ids: ["x", "y"], from: undefined } })).toBe(
      "/companies/1/accounts/m?ids=x&ids=y",
    );
    expect(pathOf(created)).toBe("/things");
  });

  it("refuses to build a path with a param missing, rather than calling /things/undefined", () => {
    expect(() => pathOf(removed, { params: {} })).toThrow("DELETE /things/:id: no value for :id");
    expect(() => pathOf(removed, { params: { id: "" } })).toThrow("no value for :id");
  });

  it("names the params of a path in order", () => {
    expect(paramNames(accounts.path)).toEqual(["realmId", "month"]);
    expect(paramNames("/things")).toEqual([]);
  });

  it("reads 200, then 201, then 202, then the first declared status as the success", () => {
    expect(successOf(accounts).status).toBe(200);
    expect(successOf(created).status).toBe(201);
    expect(successOf(removed)).toEqual({ status: 204, body: null });
    expect(successOf(download).body).toBe("file");
  });

  it("marks declarations so the server and the tests can find them among the contract's exports", () => {
    expect(isEndpoint(accounts)).toBe(true);
    expect(isEndpoint({ method: "GET", path: "/x", responses: {} })).toBe(false);
    expect(isEndpoint(null)).toBe(false);
  });

  it("types a call's input and output from the declaration", () => {
    expectTypeOf<EndpointInput<typeof created>>().toEqualTypeOf<{ params?: undefined } & { query?: undefined } & { body: { name: string } }>();
    expectTypeOf<EndpointOutput<typeof accounts>>().toEqualTypeOf<{ id: string }[]>();
    expectTypeOf<EndpointOutput<typeof created>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<EndpointOutput<typeof removed>>().toEqualTypeOf<void>();
    expectTypeOf<EndpointOutput<typeof download>>().toEqualTypeOf<DownloadedFile>();
  });

  it("declares the common forms in short: METHOD(path, responses, request) is the same declaration as endpoint()", () => {
    const params = z.object({ id: z.string() });
    const body = z.object({ name: z.string() });
    const answer = z.object({ id: z.string() });
    const short = POST("/things/:id", { 201: answer }, { params, body });
    expect(short).toEqual(endpoint({ method: "POST", path: "/things/:id", params, body, responses: { 201: answer } }));
    const gone = DELETE(removed.path, noContent, { params: removed.params });
    expect(gone).toEqual(removed);
    expect(GET("/report.xlsx", { 200: "file" })).toEqual(download);
    expect(isEndpoint(GET("/x", { 200: answer }))).toBe(true);
    expectTypeOf<EndpointInput<typeof short>>().toEqualTypeOf<{ params: { id: string } } & { query?: undefined } & { body: { name: string } }>();
    expectTypeOf(short.method).toEqualTypeOf<"POST">();
    expectTypeOf(short.path).toEqualTypeOf<"/things/:id">();
    expectTypeOf<EndpointOutput<typeof short>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<EndpointOutput<typeof gone>>().toEqualTypeOf<void>();
  });
});
