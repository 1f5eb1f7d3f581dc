package io.clrheap.golden.fuzz;

/**
 * One thing under fuzz: a reader (and what runs after it opens), fed one input. An input may succeed or be refused
 * with a documented exception; {@link #refusal} says which exceptions are documented refusals. Anything else a run
 * throws, a run longer than {@link FuzzRunner#TIME_LIMIT}, and any {@link Error} is a finding.
 */
interface FuzzTarget {

    /** Short name: the corpus folder ({@code fuzz-corpus/NAME}) and the regressions folder of this target. */
    String name();

    /**
     * Runs the input. Returns a summary of what happened (e.g. the problem kinds a walk reported) that serves as
     * the coverage signal: an input whose summary was not seen before is kept for further mutation.
     */
    String run(byte[] input) throws Exception;

    /**
     * Null when {@code thrown} is a documented refusal (a typed exception whose message says where), else why it is
     * not one.
     */
    String refusal(Throwable thrown);
}
