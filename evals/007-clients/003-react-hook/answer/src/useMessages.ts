import { useMutation, useQuery } from "convex/react";
import { api } from "../convex/_generated/api";

export function useMessages(channel: string) {
  const messages = useQuery(api.messages.list, { channel });
  const sendMessage = useMutation(api.messages.send);
  return {
    messages,
    send: (body: string) => sendMessage({ channel, body }),
  };
}
