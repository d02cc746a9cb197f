export const IDLE_TITLE = "Idle Timeout";
export const IDLE_QUESTION = "Are you still there?";
