import { useMutation } from "convex/react";
import type { OptimisticLocalStore } from "convex/browser";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";

export function addTodoLocally(localStore: OptimisticLocalStore, args: { text: string }): void {
  const current = localStore.getQuery(api.todos.list, {});
  if (current === undefined) {
    return;
  }
  const temporary = { _id: crypto.randomUUID() as Id<"todos">, text: args.text, done: false };
  localStore.setQuery(api.todos.list, {}, [...current, temporary]);
}

export function toggleTodoLocally(localStore: OptimisticLocalStore, args: { id: Id<"todos"> }): void {
  const current = localStore.getQuery(api.todos.list, {});
  if (current === undefined) {
    return;
  }
  localStore.setQuery(
    api.todos.list,
    {},
    current.map((todo) => (todo._id === args.id ? { ...todo, done: !todo.done } : todo)),
  );
}

export function useAddTodo() {
  return useMutation(api.todos.add).withOptimisticUpdate(addTodoLocally);
}

export function useToggleTodo() {
  return useMutation(api.todos.toggle).withOptimisticUpdate(toggleTodoLocally);
}
