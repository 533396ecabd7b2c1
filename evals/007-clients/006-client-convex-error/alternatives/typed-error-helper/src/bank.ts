import { ConvexHttpClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";

export type BankResult = { ok: true; balance: number } | { ok: false; code: string };

async function settle(call: Promise<number>): Promise<BankResult> {
  return call.then(
    (balance): BankResult => ({ ok: true, balance }),
    (err: unknown): BankResult => {
      if (!(err instanceof ConvexError)) throw err;
      const { code } = err.data as { code: string };
      return { ok: false, code };
    },
  );
}

export function deposit(client: ConvexHttpClient, accountId: Id<"accounts">, amount: number): Promise<BankResult> {
  return settle(client.mutation(api.accounts.deposit, { accountId, amount }));
}

export function withdraw(client: ConvexHttpClient, accountId: Id<"accounts">, amount: number): Promise<BankResult> {
  return settle(client.mutation(api.accounts.withdraw, { accountId, amount }));
}
