package io.clrheap.layout.profile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.io.InputStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The net9.0 and net10.0 profiles agree with the contract descriptors the real 9.0.1 and 10.0.9 runtimes ship
 * (the runtime's own statement of its layout, in test resources {@code real-descriptors/}).
 */
class ContractDescriptorAgreementTest {

    private static final ProfileLoader LOADER = ProfileLoader.builtIn();

    /** descriptor type, descriptor field, profile structure, profile field. */
    static Stream<Arguments> sharedFields() {
        String[][] pairs = {
            {"MethodTable", "MTFlags", "MethodTable", "MTFlags"},
            {"MethodTable", "BaseSize", "MethodTable", "BaseSize"},
            {"MethodTable", "MTFlags2", "MethodTable", "MTFlags2"},
            {"MethodTable", "NumVirtuals", "MethodTable", "NumVirtuals"},
            {"MethodTable", "NumInterfaces", "MethodTable", "NumInterfaces"},
            {"MethodTable", "ParentMethodTable", "MethodTable", "ParentMethodTable"},
            {"MethodTable", "Module", "MethodTable", "Module"},
            {"MethodTable", "AuxiliaryData", "MethodTable", "AuxiliaryData"},
            {"MethodTable", "EEClassOrCanonMT", "MethodTable", "EEClassOrCanonMT"},
            {"MethodTable", "PerInstInfo", "MethodTable", "PerInstInfo"},
            {"EEClass", "MethodTable", "EEClass", "MethodTable"},
            {"String", "m_StringLength", "String", "m_StringLength"},
            {"String", "m_FirstChar", "String", "m_FirstChar"},
            {"Array", "m_NumComponents", "Array", "m_NumComponents"},
            {"Object", "m_pMethTab", "Object", "m_pMethTab"},
            {"Thread", "Id", "Thread", "Id"},
            {"Thread", "OSId", "Thread", "OSId"},
            {"Thread", "State", "Thread", "State"},
            {"Thread", "PreemptiveGCDisabled", "Thread", "PreemptiveGCDisabled"},
            {"Thread", "Frame", "Thread", "Frame"},
            {"Thread", "RuntimeThreadLocals", "Thread", "RuntimeThreadLocals"},
            {"Thread", "LinkNext", "Thread", "LinkNext"},
            {"ThreadStore", "FirstThreadLink", "ThreadStore", "FirstThreadLink"},
            {"ThreadStore", "ThreadCount", "ThreadStore", "ThreadCount"},
            {"ThreadStore", "UnstartedCount", "ThreadStore", "UnstartedCount"},
            {"ThreadStore", "BackgroundCount", "ThreadStore", "BackgroundCount"},
            {"ThreadStore", "PendingCount", "ThreadStore", "PendingCount"},
            {"ThreadStore", "DeadCount", "ThreadStore", "DeadCount"},
            {"RuntimeThreadLocals", "AllocContext", "RuntimeThreadLocals", "AllocContext"},
            {"GCAllocContext", "Pointer", "gc_alloc_context", "alloc_ptr"},
            {"GCAllocContext", "Limit", "gc_alloc_context", "alloc_limit"},
            {"EEAllocContext", "GCAllocationContext", "ee_alloc_context", "m_GCAllocContext"},
        };
        return Stream.of(new String[] {"net9.0.1", "net9.0"}, new String[] {"net10.0.9", "net10.0"})
                .flatMap(d -> Stream.of(GcFlavor.values()).flatMap(gc -> Stream.of(pairs)
                        .map(p -> Arguments.of(d[0], RuntimeVersion.parse(d[1]), gc, p[0], p[1], p[2], p[3]))));
    }

    @ParameterizedTest(name = "{0} {2}: {3}.{4}")
    @MethodSource("sharedFields")
    void fieldOffsetEqualsTheRealDescriptor(String descriptor, RuntimeVersion version, GcFlavor gc,
                                            String type, String field, String structure, String profileField) throws IOException {
        JsonNode entry = descriptor(descriptor).path("types").path(type).path(field);
        org.junit.jupiter.api.Assumptions.assumeFalse(entry.isMissingNode(), descriptor + " does not publish " + type + "." + field);
        long offset = entry.isArray() ? entry.get(0).asLong() : entry.asLong();
        RuntimeLayout layout = LOADER.load(version, gc);
        assertThat(layout.offset(structure, profileField)).as("%s.%s in %s", structure, profileField, layout.describe()).isEqualTo(offset);
    }

    @ParameterizedTest(name = "{0} {2}: size of {3}")
    @MethodSource("sizedTypes")
    void structureSizeEqualsTheRealDescriptor(String descriptor, RuntimeVersion version, GcFlavor gc, String type, String structure) throws IOException {
        JsonNode size = descriptor(descriptor).path("types").path(type).path("!");
        org.junit.jupiter.api.Assumptions.assumeFalse(size.isMissingNode(), descriptor + " does not publish the size of " + type);
        assertThat(LOADER.load(version, gc).type(structure).size()).hasValue(size.asLong());
    }

    static Stream<Arguments> sizedTypes() {
        return Stream.of(new String[] {"net9.0.1", "net9.0"}, new String[] {"net10.0.9", "net10.0"})
                .flatMap(d -> Stream.of(GcFlavor.values()).flatMap(gc -> Stream.of(
                        Arguments.of(d[0], RuntimeVersion.parse(d[1]), gc, "MethodTable", "MethodTable"),
                        Arguments.of(d[0], RuntimeVersion.parse(d[1]), gc, "Array", "Array"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("descriptorsAndVersions")
    void contractVersionsEqualTheRealDescriptor(String descriptor, RuntimeVersion version) throws IOException {
        JsonNode contracts = descriptor(descriptor).path("contracts");
        RuntimeLayout layout = LOADER.load(version, GcFlavor.SERVER);
        assertThat(layout.contracts()).hasSize(contracts.size());
        contracts.properties().forEach(e -> assertThat(layout.contracts().get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue().asInt()));
    }

    static Stream<Arguments> descriptorsAndVersions() {
        return Stream.of(Arguments.of("net9.0.1", RuntimeVersion.NET9), Arguments.of("net10.0.9", RuntimeVersion.NET10));
    }

    private static JsonNode descriptor(String name) throws IOException {
        try (InputStream in = ContractDescriptorAgreementTest.class.getResourceAsStream("/io/clrheap/layout/real-descriptors/" + name + ".json")) {
            assertThat(in).as("test resource real-descriptors/%s.json", name).isNotNull();
            return new ObjectMapper().readTree(in);
        }
    }
}
