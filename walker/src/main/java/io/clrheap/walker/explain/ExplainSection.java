package io.clrheap.walker.explain;

import java.util.List;

/**
 * One stage of the pointer chase: a structure (or a call) and the reads made of it, with notes saying why.
 *
 * @param title   what the stage is, e.g. {@code GcDacVars}
 * @param where   where it is and how it was reached, e.g. {@code at 0x7f3a10061000 (g_dacTable[20] → *0x7f3a100603a8)}
 * @param steps   the reads, in the order made
 * @param notes   what the reads mean and what the next stage takes from them
 * @param excerpt the bytes of the whole structure, when one excerpt says more than one per read (objects); else null
 */
public record ExplainSection(String title, String where, List<ExplainStep> steps, List<String> notes, HexExcerpt excerpt) {

    public ExplainSection {
        steps = List.copyOf(steps);
        notes = List.copyOf(notes);
    }
}
