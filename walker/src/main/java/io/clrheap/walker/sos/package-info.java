/**
 * SOS's reports as text and JSON ({@code eeheap -gc}, {@code gchandles}; docs/reports.md): one formatter per report,
 * fed by the walker from a dump and by the answer key from what the emulator placed, so the two print the same text.
 */
package io.clrheap.walker.sos;
