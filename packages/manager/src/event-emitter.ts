/** A listener of one event. */
export type Listener<T> = (payload: T) => void;

/** A small typed event emitter: `on` returns the unsubscribe function. */
export interface TypedEmitter<Events> {
  /** Calls `listener` on every `event` until the returned function is called. */
  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): () => void;
  /** Calls every listener of `event`, in subscription order. */
  emit<E extends keyof Events>(event: E, payload: Events[E]): void;
}

/**
 * Creates a {@link TypedEmitter}. A listener that throws does not stop the
 * others nor the emitter's caller: its error goes to `onListenerError`.
 */
export function createEmitter<Events>(onListenerError: (error: unknown) => void): TypedEmitter<Events> {
  const listeners = new Map<keyof Events, Set<Listener<never>>>();
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      // Wrapped so subscribing one function twice gives two independent subscriptions.
      const entry: Listener<never> = (payload) => listener(payload);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as Listener<typeof payload>)(payload);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
  };
}
