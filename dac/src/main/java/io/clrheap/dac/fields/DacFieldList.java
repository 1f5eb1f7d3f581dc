package io.clrheap.dac.fields;

import io.clrheap.dac.DacHeap;
import io.clrheap.dac.sos.FieldDescData;
import io.clrheap.dac.sos.MethodTableData;
import io.clrheap.dac.sos.MethodTableFieldData;
import io.clrheap.dac.walk.DacWalkListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a DAC field listing ({@link io.clrheap.dac.walk.SosFieldWalk}) answered, collected in the parent process. */
public final class DacFieldList implements DacWalkListener {

    /** One FieldDesc as GetFieldDescData read it. */
    public record Field(long address, FieldDescData data) {
    }

    /**
     * One MethodTable's listing.
     *
     * @param parentInstanceFields the parent's wNumInstanceFields, where the class's own instance fields start counting
     * @param fields               the FieldDescs DisplayFields visits, in list order (the class's own fields)
     */
    public record Listing(long methodTable, MethodTableData data, MethodTableFieldData counts, int parentInstanceFields, List<Field> fields) {
    }

    private static final int MAX_KEPT_FAILURES = 1000;

    private final Map<Long, Listing> listings = new HashMap<>();
    private final List<DacHeap.FailedCall> failures = new ArrayList<>();
    private long failureCount;
    private long failedReads;
    private final List<String> firstFailedReads = new ArrayList<>();

    @Override
    public void methodTableFields(long methodTable, MethodTableData data, MethodTableFieldData counts, int parentInstanceFields) {
        listings.put(methodTable, new Listing(methodTable, data, counts, parentInstanceFields, new ArrayList<>()));
    }

    @Override
    public void fieldDesc(long methodTable, long address, FieldDescData data) {
        Listing l = listings.get(methodTable);
        if (l != null) {
            l.fields().add(new Field(address, data));
        }
    }

    @Override
    public void callFailed(String call, long argument, int hresult) {
        failureCount++;
        if (failures.size() < MAX_KEPT_FAILURES) {
            failures.add(new DacHeap.FailedCall(call, argument, hresult));
        }
    }

    @Override
    public void failedReads(long count, List<String> first) {
        failedReads = count;
        firstFailedReads.addAll(first);
    }

    /** {@code methodTable}'s listing, empty when the DAC could not list it (see {@link #failures()}). */
    public Optional<Listing> listing(long methodTable) {
        return Optional.ofNullable(listings.get(methodTable));
    }

    public int size() {
        return listings.size();
    }

    /** Failed DAC calls (the first {@value #MAX_KEPT_FAILURES}); {@link #failureCount()} counts them all. */
    public List<DacHeap.FailedCall> failures() {
        return Collections.unmodifiableList(failures);
    }

    public long failureCount() {
        return failureCount;
    }

    /** How many of the DAC's reads of target memory the dump could not answer. */
    public long failedReads() {
        return failedReads;
    }

    /** The first of them ({@code N bytes at 0xADDRESS (K present)}). */
    public List<String> firstFailedReads() {
        return Collections.unmodifiableList(firstFailedReads);
    }
}
