import { Alert, Skeleton } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { messageOf } from "../../../lib/forms.ts";

/** A query's data once it is there: a skeleton of `height` while it loads, its error in words, else what `children` draws of it. */
export function Loaded<T>({ query, height, children }: { query: UseQueryResult<T>; height: number; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Skeleton height={height} />;
  if (query.isError) return <Alert color="red">{messageOf(query.error)}</Alert>;
  return <>{children(query.data)}</>;
}
