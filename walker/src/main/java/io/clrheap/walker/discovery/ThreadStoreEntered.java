package io.clrheap.walker.discovery;

/** The thread store ({@code ThreadStore::s_pThreadStore}) is read next, then its threads one by one. */
public record ThreadStoreEntered() implements DiscoveryEvent {
}
