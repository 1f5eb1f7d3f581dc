package io.clrheap.walker.heap;

import java.util.List;

/**
 * The runtime's thread store as read from a dump: its threads in list order, and what reading the list met (a list
 * cut short is reported, never silently shortened).
 */
public record ThreadStoreList(List<ManagedThread> threads, List<Problem> problems) {

    public ThreadStoreList {
        threads = List.copyOf(threads);
        problems = List.copyOf(problems);
    }
}
