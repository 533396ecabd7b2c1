import { Agent } from "@convex-dev/agent";
import { openai } from "@ai-sdk/openai";
import { stepCountIs } from "ai";
import { components } from "./_generated/api";

export const supportAgent = new Agent(components.agent, {
  name: "Support",
  languageModel: openai.chat("gpt-4o-mini"),
  instructions: "You answer customer questions politely and briefly.",
  stopWhen: stepCountIs(1),
});
