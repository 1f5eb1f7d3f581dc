package io.clrheap.walker.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Collects the reads and notes of one {@link ExplainSection} as a narrator goes. */
final class SectionBuilder {

    private String title;
    private String where;
    private final List<ExplainStep> steps = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private HexExcerpt excerpt;

    SectionBuilder(String title, String where) {
        this.title = title;
        this.where = where;
    }

    /** Names the stage, once a later read has told what it is (a thread's id). */
    SectionBuilder title(String text) {
        this.title = text;
        return this;
    }

    /** Says where the structure is, once a later read has told. */
    SectionBuilder where(String text) {
        this.where = text;
        return this;
    }

    /** Adds the read and returns its value. */
    long add(ExplainStep step) {
        steps.add(step);
        return step.value();
    }

    SectionBuilder note(String format, Object... args) {
        notes.add(args.length == 0 ? format : String.format(Locale.ROOT, format, args));
        return this;
    }

    SectionBuilder excerpt(HexExcerpt e) {
        this.excerpt = e;
        return this;
    }

    ExplainSection build() {
        return new ExplainSection(title, where, steps, notes, excerpt);
    }
}
