import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", ".data/**", "**/coverage/**", "apps/server/migrations/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": true, "ts-nocheck": true, "ts-expect-error": "allow-with-description" }],
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']", message: "No focused tests." },
        // React calls whatever an effect returns as its cleanup: an arrow with an expression body
        // returns that expression (scrollIntoView returns a Promise in recent Chromium: "l is not a function").
        ...["callee.name", "callee.property.name"].map((callee) => ({
          selector: `CallExpression[${callee}=/^use(Layout|Insertion)?Effect$/] > ArrowFunctionExpression:first-child[expression=true][body.type!=/^(ArrowFunctionExpression|FunctionExpression)$/]`,
          message: "Give the effect a block body: the value of an expression body is returned, and React calls it as the cleanup.",
        })),
      ],
    },
  },
  { files: ["apps/web/src/**"], languageOptions: { globals: { ...globals.browser } } },
);
