package io.clrheap.cli.map;

/**
 * What the page says about the dump besides its heap map.
 *
 * @param title    what was drawn: the dump's file name, or {@code emulated SCENARIO}
 * @param describe the runtime: build, GC flavour, how it was identified
 */
public record MapPage(String title, String describe) {
}
