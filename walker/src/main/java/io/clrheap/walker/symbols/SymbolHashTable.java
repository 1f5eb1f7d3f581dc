package io.clrheap.walker.symbols;

/** A dynamic-symbol hash table: finds the index of the symbol with a given name, walking a bounded chain. */
sealed interface SymbolHashTable permits GnuHashTable, SysvHashTable {

    /** Whether symbol {@code index} is the one looked for (its name matches and it is defined). */
    @FunctionalInterface
    interface Candidate {
        boolean matches(long index) throws ModuleFormatException;
    }

    /** The index of the first symbol on {@code name}'s chain that {@code candidate} accepts, or -1. */
    long find(byte[] name, Candidate candidate) throws ModuleFormatException;
}
