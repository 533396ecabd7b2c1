import { defineComponent } from "convex/server";

const component = defineComponent("auditLog");
export default component;
