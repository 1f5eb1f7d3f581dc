package io.clrheap.layout;

/**
 * Where a layout fact comes from: its certainty and a citation ({@code sourceKey} names an entry of the
 * profile's {@code sources} table, {@code citation} is that entry's text; {@code note} adds detail).
 */
public record Provenance(Certainty certainty, String sourceKey, String citation, String note) {

    /** One line, e.g. {@code source: DACH (dotnet/runtime:src/coreclr/gc/gcinterface.dac.h @03a2886e)}. */
    public String describe() {
        StringBuilder s = new StringBuilder(certainty.id()).append(": ").append(sourceKey);
        if (note != null && !note.isEmpty()) {
            s.append(" — ").append(note);
        }
        return s.toString();
    }
}
