package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.Problem;

/** Discovery found something wrong; the problem names the read that caused it when one did. */
public record ProblemRaised(Problem problem) implements DiscoveryEvent {
}
