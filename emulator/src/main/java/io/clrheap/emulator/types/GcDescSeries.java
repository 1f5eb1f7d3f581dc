package io.clrheap.emulator.types;

/**
 * One {@code CGCDescSeries} of a GC descriptor (gcdesc.h, https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcdesc.h):
 * the references of an object run from {@code obj + startOffset} for {@code seriesSize + objectSize} bytes, where
 * {@code seriesSize} is stored less the type's BaseSize (so that an array's one series, {@code -BaseSize}, covers its
 * elements whatever their count).
 *
 * @param seriesSize  the stored size: the bytes the series covers minus BaseSize
 * @param startOffset the first reference's offset from the object start (the MethodTable word is offset 0)
 */
public record GcDescSeries(long seriesSize, long startOffset) {
}
