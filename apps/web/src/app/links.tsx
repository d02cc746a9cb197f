import { createContext, forwardRef, useContext, type AnchorHTMLAttributes, type ComponentType, type ReactNode, type Ref } from "react";

/**
 * How a link inside the app moves the user: react-router's `Link` once the router runs, a page
 * link before it (the login shell, src/app/shell.tsx, draws the public chrome with no router so the
 * /login route stays small). Components that appear in both (logo, public header and footer, login
 * form) link through `AppLink` and never import the router themselves.
 */
export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string; ref?: Ref<HTMLAnchorElement> };

/** Without a provider a link is a plain page link: the browser loads the target. */
const PageLink = forwardRef<HTMLAnchorElement, LinkProps>(function PageLink({ to, ...rest }, ref) {
  return <a ref={ref} href={to} {...rest} />;
});

const LinkContext = createContext<ComponentType<LinkProps>>(PageLink);

export function LinkProvider({ component, children }: { component: ComponentType<LinkProps>; children: ReactNode }) {
  return <LinkContext.Provider value={component}>{children}</LinkContext.Provider>;
}

/** A link drawn by whatever moves the user in this part of the app (see above); Mantine's `component={AppLink}` takes it. */
export const AppLink = forwardRef<HTMLAnchorElement, LinkProps>(function AppLink(props, ref) {
  const Link = useContext(LinkContext);
  return <Link ref={ref} {...props} />;
});
