import { TableAggregate } from "@convex-dev/aggregate";
import { customCtx, customMutation } from "convex-helpers/server/customFunctions";
import { Triggers } from "convex-helpers/server/triggers";
import { components } from "./_generated/api";
import type { DataModel, Id } from "./_generated/dataModel";
import { mutation as rawMutation } from "./_generated/server";

// Per list (namespace), sorted by done: false first, then true.
export const todoStats = new TableAggregate<{
  Namespace: Id<"lists">;
  Key: boolean;
  DataModel: DataModel;
  TableName: "todos";
}>(components.todoStats, {
  namespace: (doc) => doc.listId,
  sortKey: (doc) => doc.done,
});

const triggers = new Triggers<DataModel>();
triggers.register("todos", todoStats.trigger());

export const mutation = customMutation(rawMutation, customCtx(triggers.wrapDB));
