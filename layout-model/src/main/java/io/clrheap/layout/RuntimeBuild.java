package io.clrheap.layout;

/**
 * One released build a profile was checked against, e.g. 8.0.30, identified in a dump by its version
 * and by the length of its {@code g_dacTable}.
 */
public record RuntimeBuild(String version, DacTable dacTable, Provenance provenance) {
}
