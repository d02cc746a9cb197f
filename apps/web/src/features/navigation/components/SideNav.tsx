import { Box, NavLink, Stack, Text, Tooltip } from "@mantine/core";
import { IconChevronRight, IconLock } from "@tabler/icons-react";
import { Link, useLocation } from "react-router";
import { NAV_REASONS, navAvailability, type NavFacts } from "../enabling.ts";
import { isInGroup, NAV_ITEMS, type NavItem } from "../navItems.ts";
import classes from "./SideNav.module.css";

/**
 * A disabled entry stays focusable and explains itself on hover and focus, so a keyboard user
 * learns why it will not open just like a mouse user does.
 */
function DisabledItem({ label, reason, bold }: { label: string; reason: string; bold?: boolean | undefined }) {
  return (
    <Tooltip label={reason} position="right" withArrow multiline w={240} openDelay={100} events={{ hover: true, focus: true, touch: true }}>
      <div className={classes.disabled} tabIndex={0} role="link" aria-disabled="true" aria-label={`${label}, unavailable: ${reason}`}>
        <NavLink component="span" label={label} fw={bold ? 700 : undefined} rightSection={<IconLock size={14} aria-hidden />} disabled />
      </div>
    </Tooltip>
  );
}

function Item({ item, facts, pathname }: { item: NavItem; facts: NavFacts; pathname: string }) {
  const availability = navAvailability(item, facts);
  if (!availability.enabled) {
    const meanwhile = item.duringOnboarding && availability.reasons.includes(NAV_REASONS.onboardingComplete) ? [item.duringOnboarding] : [];
    return <DisabledItem label={item.label} reason={`${[...availability.reasons, ...meanwhile].join(". ")}.`} />;
  }
  const active = pathname === item.path || pathname.startsWith(`${item.path}/`);
  return (
    <NavLink
      component={Link}
      to={item.path}
      label={item.label}
      active={active}
      aria-current={active ? "page" : undefined}
      rightSection={active ? <IconChevronRight size={14} aria-hidden /> : null}
      className={classes.item}
    />
  );
}

/** SPEC §2 side navigation: Home (disabled), then the two bold sections; the current section is highlighted. */
export function SideNav({ facts }: { facts: NavFacts }) {
  const { pathname } = useLocation();
  return (
    <Stack gap="md" component="nav" aria-label="Main navigation">
      {NAV_ITEMS.map((item) => {
        if (!item.items) {
          return item.disabled ? (
            <DisabledItem key={item.path} label={item.label} reason="Home opens your setup: choose a screen below." />
          ) : (
            <Item key={item.path} item={item} facts={facts} pathname={pathname} />
          );
        }
        const activeGroup = isInGroup(item, pathname);
        const headingId = `nav-group-${item.path.slice(1)}`;
        return (
          <Box key={item.path} role="group" aria-labelledby={headingId} className={classes.group} data-active={activeGroup || undefined}>
            <Text id={headingId} size="xs" fw={item.bold ? 700 : 500} className={classes.heading}>
              {item.label}
            </Text>
            {item.items.map((child) => (
              <Item key={child.path} item={child} facts={facts} pathname={pathname} />
            ))}
          </Box>
        );
      })}
    </Stack>
  );
}
