import { TextInput, type TextInputProps } from "@mantine/core";

/** A mailed 8-character code (XXXX-XXXX), in the monospace face so similar characters are told apart. */
export function CodeInput(props: TextInputProps) {
  return (
    <TextInput
      placeholder="XXXX-XXXX"
      autoComplete="one-time-code"
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", letterSpacing: "0.08em" } }}
      {...props}
    />
  );
}
