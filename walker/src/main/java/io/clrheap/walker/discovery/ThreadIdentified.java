package io.clrheap.walker.discovery;

/** The thread just entered is {@code owner}, as reports name it: {@code thread 1 (tid 30152)}. */
public record ThreadIdentified(String owner) implements DiscoveryEvent {
}
