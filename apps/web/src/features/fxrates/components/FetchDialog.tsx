import { Button, Checkbox, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useFetchRates, type FxFetched } from "../api.ts";
import { monthCount } from "@groupledger/domain";
import { rangeProblem, type MonthRangeValue } from "../model.ts";
import { MonthRangeFields } from "./MonthRangeFields.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

interface Props {
  opened: boolean;
  initialRange: MonthRangeValue;
  parentCurrency: string;
  currencies: readonly string[];
  onClose: () => void;
  onFetched: (result: FxFetched, requestedMonths: number) => void;
}

/** Fetch rates from the rates service for a range; only empty cells are filled unless the user asks to overwrite. */
export function FetchDialog(props: Props) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={<Text fw={700}>Fetch rates from the rates service</Text>} size="lg" centered>
      {/* Mounted per opening, so it starts from the months on screen each time. */}
      {props.opened ? <FetchForm {...props} /> : null}
    </Modal>
  );
}

function FetchForm({ initialRange, parentCurrency, currencies, onClose, onFetched }: Props) {
  const [range, setRange] = useState(initialRange);
  const [overwrite, setOverwrite] = useState(false);
  const fetchRates = useFetchRates();
  const problem = rangeProblem(range);

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        fetchRates.mutate({ ...range, overwrite }, { onSuccess: (result) => onFetched(result, monthCount(range.from, range.to)) });
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          For {currencies.join(", ")} against {parentCurrency}: the average of each month's daily reference rates (ECB) and the last rate of
          the month. Every change is recorded in the change history like one typed by hand.
        </Text>
        <MonthRangeFields idPrefix="fx-fetch" value={range} onChange={setRange} disabled={fetchRates.isPending} />
        <Checkbox
          label="Overwrite rates already entered"
          description={overwrite ? "Rates typed or imported in these months are replaced by the service's." : "Only empty cells are filled; rates already entered are kept."}
          checked={overwrite}
          onChange={(e) => setOverwrite(e.currentTarget.checked)}
          disabled={fetchRates.isPending}
        />
        <Failure title="No rates were fetched" message={fetchRates.error?.message} />
        <DialogActions onCancel={onClose} busy={fetchRates.isPending} mt="xs">
          <Button type="submit" loading={fetchRates.isPending} disabled={problem !== null}>
            Fetch rates
          </Button>
        </DialogActions>
      </Stack>
    </form>
  );
}
