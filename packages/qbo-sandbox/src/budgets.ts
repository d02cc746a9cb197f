/**
 * QuickBooks Online's Budget entity (issue 23), read-only through the API as the emulator keeps it:
 * `select * from Budget` answers each budget with its BudgetDetail lines. The shape follows Intuit's
 * API reference and its query example ("Sandbox Budget": StartDate, BudgetEntryType, EndDate, Name,
 * SyncToken, BudgetType, domain, sparse, Active, BudgetDetail[{Amount, AccountRef, BudgetDate}],
 * then Id and MetaData); a detail line subdivided by class, location or customer carries its
 * ClassRef, DepartmentRef or CustomerRef after the AccountRef. Writes answer QuickBooks'
 * unsupported-operation fault (apiRoutes' catch-all): a budget is made in QuickBooks itself.
 */
import { metaTime, type Json } from "./entities.ts";
import type { CompanyLedger } from "./ledger.ts";
import { centsToNumber } from "./money.ts";

export interface BudgetDetailRow {
  /** The first day of the month (Monthly), quarter or year the amount is for. */
  readonly budgetDate: string;
  /** Cents of the company's currency, the account's natural sign (income and expenses positive). */
  readonly amount: number;
  readonly accountId: string;
  readonly classId?: string | undefined;
  readonly departmentId?: string | undefined;
  readonly customerId?: string | undefined;
}

export interface BudgetRow {
  readonly id: string;
  readonly name: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly budgetType: "ProfitAndLoss" | "BalanceSheet";
  readonly entryType: "Monthly" | "Quarterly" | "Annually";
  readonly active: boolean;
  readonly details: readonly BudgetDetailRow[];
  readonly createTime: number;
  readonly updateTime: number;
  readonly syncToken: number;
}

export function renderBudget(ledger: CompanyLedger, b: BudgetRow): Json {
  const ref = (value: string, name: string | undefined) => ({ value, name: name ?? "" });
  return {
    StartDate: b.startDate,
    BudgetEntryType: b.entryType,
    EndDate: b.endDate,
    Name: b.name,
    SyncToken: String(b.syncToken),
    BudgetType: b.budgetType,
    domain: "QBO",
    sparse: false,
    Active: b.active,
    BudgetDetail: b.details.map((d) => ({
      Amount: centsToNumber(d.amount),
      AccountRef: ref(d.accountId, ledger.account(d.accountId)?.name),
      ...(d.classId === undefined ? {} : { ClassRef: ref(d.classId, ledger.classes.find((c) => c.id === d.classId)?.name) }),
      ...(d.departmentId === undefined ? {} : { DepartmentRef: ref(d.departmentId, ledger.departments.find((c) => c.id === d.departmentId)?.name) }),
      ...(d.customerId === undefined ? {} : { CustomerRef: ref(d.customerId, ledger.party(d.customerId)?.displayName) }),
      BudgetDate: d.budgetDate,
    })),
    Id: b.id,
    MetaData: { CreateTime: metaTime(b.createTime), LastUpdatedTime: metaTime(b.updateTime) },
  };
}
