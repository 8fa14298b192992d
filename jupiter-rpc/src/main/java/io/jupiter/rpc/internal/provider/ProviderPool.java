package io.jupiter.rpc.internal.provider;

/**
 * The built-in provider pool and its queue (docs/reliability.md, "Overload: what a full provider does").
 *
 * @param threads        threads of the built-in pool; 0 runs requests on the IO threads; unused with an executor
 * @param capacity       requests that may wait for a provider thread (or, with an executor, be handed to it and
 *                       not finished) before new ones are refused
 * @param targetMillis   CoDel's target: the queue stands when its oldest request waited longer for 100 ms; 0: the
 *                       queue never counts as standing and sheds nothing (1.3.1's queue)
 * @param intervalMillis the longest wait while the queue stands; the newest is served first from half of it
 * @param parallelism    threads running at once before a request wakes another
 * @param stallMicros    how long a request may wait, every awake thread busy, before it wakes another
 * @param spinMicros     how long one idle thread keeps looking for work before it parks
 */
public record ProviderPool(int threads, int capacity, long targetMillis, long intervalMillis, int parallelism,
                           long stallMicros, long spinMicros) {
}
