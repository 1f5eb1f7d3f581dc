package io.clrheap.walker.source;

import java.util.List;

/**
 * A process image that recorded its threads' registers: an ELF core (NT_PRSTATUS notes), a minidump (its thread
 * list's CONTEXTs), a fixture bundle (its manifest's threads), a live process stopped with ptrace. What the
 * conservative stack scan starts from.
 */
public interface ThreadSource {

    /** The threads with their registers, in the dump's order; empty when the image recorded none. */
    List<OsThread> osThreads();
}
