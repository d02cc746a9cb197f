export {
  QboError,
  classifyQboError,
  parseQboError,
  parseRetryAfter,
  type HeadersLike,
  type QboErrorInit,
  type QboErrorItem,
  type QboErrorKind,
} from "./errors.ts";
