"""The files the Convex CLI's codegen writes, as text templates (``codegen`` fills them in): the app's
``_generated/`` and a local component's. Kept apart so ``codegen`` reads as the logic it is."""

__all__ = [
    "API_JS", "COMPONENT_API_JS", "COMPONENT_TS_TYPES", "DATA_MODEL_WITHOUT_SCHEMA", "DATA_MODEL_WITH_SCHEMA",
    "LOCAL_SERVER_TS", "SERVER_DTS", "SERVER_JS",
]

API_JS = """/* eslint-disable */
import { anyApi } from "convex/server";

export const api = anyApi;
export const internal = anyApi;
"""

DATA_MODEL_WITH_SCHEMA = """/* eslint-disable */
import type {
  DataModelFromSchemaDefinition,
  DocumentByName,
  TableNamesInDataModel,
  SystemTableNames,
} from "convex/server";
import type { GenericId } from "convex/values";
import schema from "../schema.js";

export type TableNames = TableNamesInDataModel<DataModel>;

export type Doc<TableName extends TableNames> = DocumentByName<
  DataModel,
  TableName
>;

export type Id<TableName extends TableNames | SystemTableNames> =
  GenericId<TableName>;

export type DataModel = DataModelFromSchemaDefinition<typeof schema>;
"""

# Without a schema the CLI writes permissive types (any table, any document).
DATA_MODEL_WITHOUT_SCHEMA = """/* eslint-disable */
import { AnyDataModel } from "convex/server";
import type { GenericId } from "convex/values";

export type TableNames = string;

export type Doc = any;

export type Id<TableName extends TableNames = TableNames> =
  GenericId<TableName>;

export type DataModel = AnyDataModel;
"""

SERVER_DTS = """/* eslint-disable */
import {
  ActionBuilder,
  HttpActionBuilder,
  MutationBuilder,
  QueryBuilder,
  GenericActionCtx,
  GenericMutationCtx,
  GenericQueryCtx,
  GenericDatabaseReader,
  GenericDatabaseWriter,
} from "convex/server";
import type { DataModel } from "./dataModel.js";

export declare const query: QueryBuilder<DataModel, "public">;
export declare const internalQuery: QueryBuilder<DataModel, "internal">;
export declare const mutation: MutationBuilder<DataModel, "public">;
export declare const internalMutation: MutationBuilder<DataModel, "internal">;
export declare const action: ActionBuilder<DataModel, "public">;
export declare const internalAction: ActionBuilder<DataModel, "internal">;
export declare const httpAction: HttpActionBuilder;

export declare const env: Record<string, string | undefined>;

export type QueryCtx = GenericQueryCtx<DataModel>;
export type MutationCtx = GenericMutationCtx<DataModel>;
export type ActionCtx = GenericActionCtx<DataModel>;
export type DatabaseReader = GenericDatabaseReader<DataModel>;
export type DatabaseWriter = GenericDatabaseWriter<DataModel>;
"""

SERVER_JS = """/* eslint-disable */
import {
  actionGeneric,
  httpActionGeneric,
  queryGeneric,
  mutationGeneric,
  internalActionGeneric,
  internalMutationGeneric,
  internalQueryGeneric,
} from "convex/server";

export const query = queryGeneric;
export const internalQuery = internalQueryGeneric;
export const mutation = mutationGeneric;
export const internalMutation = internalMutationGeneric;
export const action = actionGeneric;
export const internalAction = internalActionGeneric;
export const httpAction = httpActionGeneric;

export const env = process.env;
"""

COMPONENT_API_JS = """/* eslint-disable */
import { anyApi, componentsGeneric } from "convex/server";

export const api = anyApi;
export const internal = anyApi;
export const components = componentsGeneric();
"""

# The CLI builds this type from the deployment's analysis (each public function's validators, ids
# as strings); offline the same shape comes from the modules' types. Handlers without a `returns`
# validator get their inferred type where the CLI says `any`.
COMPONENT_TS_TYPES = """
type _PublicApi = FilterApi<ApiFromModules<{
%s}>, FunctionReference<any, "public">>;

type _CrossBoundary<T> = T extends GenericId<string>
  ? string
  : T extends ArrayBuffer
    ? T
    : T extends (infer U)[]
      ? _CrossBoundary<U>[]
      : T extends object
        ? { [K in keyof T]: _CrossBoundary<T[K]> }
        : T;

type _AsComponent<T, Name> = T extends FunctionReference<infer Type, "public", infer Args, infer Returns>
  ? FunctionReference<Type, "internal", _CrossBoundary<Args>, _CrossBoundary<Returns>, Name>
  : { [K in keyof T]: _AsComponent<T[K], Name> };

export type ComponentApi<Name extends string | undefined = string | undefined> = _AsComponent<_PublicApi, Name>;
"""

LOCAL_SERVER_TS = """/* eslint-disable */
import type {
  ActionBuilder,
  HttpActionBuilder,
  MutationBuilder,
  QueryBuilder,
  GenericActionCtx,
  GenericMutationCtx,
  GenericQueryCtx,
  GenericDatabaseReader,
  GenericDatabaseWriter,
} from "convex/server";
import {
  actionGeneric,
  httpActionGeneric,
  queryGeneric,
  mutationGeneric,
  internalActionGeneric,
  internalMutationGeneric,
  internalQueryGeneric,
} from "convex/server";
import type { DataModel } from "./dataModel.js";

export const query: QueryBuilder<DataModel, "public"> = queryGeneric;
export const internalQuery: QueryBuilder<DataModel, "internal"> = internalQueryGeneric;
export const mutation: MutationBuilder<DataModel, "public"> = mutationGeneric;
export const internalMutation: MutationBuilder<DataModel, "internal"> = internalMutationGeneric;
export const action: ActionBuilder<DataModel, "public"> = actionGeneric;
export const internalAction: ActionBuilder<DataModel, "internal"> = internalActionGeneric;
export const httpAction: HttpActionBuilder = httpActionGeneric;
export const env: Record<string, string | undefined> = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

export type QueryCtx = GenericQueryCtx<DataModel>;
export type MutationCtx = GenericMutationCtx<DataModel>;
export type ActionCtx = GenericActionCtx<DataModel>;
export type DatabaseReader = GenericDatabaseReader<DataModel>;
export type DatabaseWriter = GenericDatabaseWriter<DataModel>;
"""
