package io.clrheap.emulator.types;

import io.clrheap.emulator.metadata.AssemblyIdentity;
import io.clrheap.emulator.metadata.CliImage;
import io.clrheap.emulator.metadata.MetadataRoot;
import io.clrheap.emulator.metadata.TypeDefRow;
import java.util.List;
import java.util.Map;

/**
 * One assembly of the emulated process: its identity, its TypeDefs (RIDs from
 * {@link io.clrheap.emulator.metadata.MetadataTables#FIRST_TYPE_RID} on, in order) and the RID of each type name
 * defined in it (the name without array suffixes, {@code Outer+Inner} for nested types).
 *
 * @param identity the Module and Assembly rows' names and version
 * @param types    the TypeDef rows after {@code <Module>}
 * @param rids     type name → TypeDef RID
 */
public record EmulatedAssembly(AssemblyIdentity identity, List<TypeDefRow> types, Map<String, Integer> rids) {

    public EmulatedAssembly {
        types = List.copyOf(types);
        rids = Map.copyOf(rids);
    }

    /** The assembly's file: a PE32+ image with its metadata, the same bytes for the same assembly. */
    public CliImage image() {
        return CliImage.of(MetadataRoot.build(identity, types));
    }
}
