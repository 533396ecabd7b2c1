import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "../convex/_generated/api";

type Profile = FunctionReturnType<typeof api.profiles.getByName>;

export function useProfile(name: string | null): Profile | undefined {
  const args = name === null || name.length === 0 ? "skip" : { name };
  return useQuery(api.profiles.getByName, args);
}

export function describeProfile(profile: Profile | undefined): string {
  switch (profile) {
    case undefined:
      return "Loading...";
    case null:
      return "No such profile";
    default:
      return [profile.name, profile.bio].join(": ");
  }
}
