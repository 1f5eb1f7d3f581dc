package io.clrheap.walker.discovery;

/** The allocation context of {@code owner} ({@code heap 0 gen0}, {@code thread 1 (tid 30152)}, {@code global}) is looked for next. */
public record ContextEntered(String owner) implements DiscoveryEvent {
}
