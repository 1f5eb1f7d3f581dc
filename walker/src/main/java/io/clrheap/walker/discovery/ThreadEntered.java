package io.clrheap.walker.discovery;

/** The {@code Thread} at {@code thread} (its {@code m_Link} at {@code link}: Thread = link − LinkNext) is read next. */
public record ThreadEntered(long link, long thread) implements DiscoveryEvent {
}
