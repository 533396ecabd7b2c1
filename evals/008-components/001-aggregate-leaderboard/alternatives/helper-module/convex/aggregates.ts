import { TableAggregate } from "@convex-dev/aggregate";
import { components } from "./_generated/api";
import type { DataModel } from "./_generated/dataModel";

// Sorted by points ascending; ranks are read with order "desc".
export const scoresByPoints = new TableAggregate<{
  Key: number;
  DataModel: DataModel;
  TableName: "scores";
}>(components.aggregate, {
  sortKey: (doc) => doc.points,
  sumValue: (doc) => doc.points,
});
