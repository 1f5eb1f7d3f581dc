package io.clrheap.emulator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.value.ElementType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Field layout as the runtime's automatic layout places fields (FieldLayout), and the types it gives. */
class FieldLayoutTest {

    private static FieldSpec field(String name, int type) {
        return FieldSpec.of(name, FieldType.primitive(type));
    }

    @Test
    void referencesComeFirstThenFieldsBySizeDescendingAsTheRealDumpsNode() {
        // the real dumps' Node {int A; long B; Node Next; string Name}: Next 0, Name 8, B 0x10, A 0x18, BaseSize 48
        TypeDef node = TypeDef.withFields("Shop.Node", TypeDef.Shape.CLASS, null, List.of(field("A", ElementType.I4), field("B", ElementType.I8),
                FieldSpec.of("Next", FieldType.classNamed("Shop.Node")), FieldSpec.of("Name", FieldType.STRING)));
        assertThat(FieldLayout.of(node).offsets()).containsExactly(0x18, 0x10, 0, 8);
        assertThat(node.baseSize()).isEqualTo(48);
        assertThat(node.references()).containsExactly(8, 16);
    }

    @Test
    void aDerivedClassFillsTheGapAfterItsBaseClassWithSmallerFieldsFirst() {
        TypeDef base = TypeDef.withFields("Shop.Base", TypeDef.Shape.CLASS, null, List.of(field("Flag", ElementType.BOOLEAN)));
        TypeDef derived = TypeDef.withFields("Shop.Derived", TypeDef.Shape.CLASS, base,
                List.of(field("L", ElementType.I8), field("S", ElementType.I2), field("B", ElementType.U1)));
        // base ends at 1: B at 1 (2-aligned next), S at 2, then L at 8
        assertThat(FieldLayout.of(derived).offsets()).containsExactly(8, 2, 1);
        assertThat(FieldLayout.of(derived).instanceSize()).isEqualTo(16);
    }

    @Test
    void structsArePlacedLastAlignedTo8AndTheirReferencesJoinTheGcDescriptor() {
        TypeDef pair = TypeDef.withFields("Shop.Pair", TypeDef.Shape.BOXED, null,
                List.of(FieldSpec.of("Key", FieldType.STRING), field("Value", ElementType.I4)));
        TypeDef holder = TypeDef.withFields("Shop.Holder", TypeDef.Shape.CLASS, null,
                List.of(FieldSpec.of("P", FieldType.struct(pair)), field("N", ElementType.I4)));
        assertThat(FieldLayout.of(pair).instanceSize()).isEqualTo(16);
        assertThat(FieldLayout.of(holder).offsets()).containsExactly(8, 0);
        assertThat(holder.references()).containsExactly(16);
        assertThat(holder.baseSize()).isEqualTo(40);
    }

    @Test
    void anEnumIsStoredAsItsUnderlyingIntegerAndNamedAsItself() {
        TypeDef color = TypeDef.enumType("Shop.Color", ElementType.U1);
        FieldType t = FieldType.enumOf(color);
        assertThat(t.storedType()).isEqualTo(ElementType.U1);
        assertThat(t.size()).isEqualTo(1);
        assertThat(t.name()).isEqualTo("Shop.Color");
        assertThat(color.isEnum()).isTrue();
    }

    @Test
    void aTypeWhoseSizeOrReferencesContradictItsFieldsIsRefused() {
        List<FieldSpec> fields = List.of(FieldSpec.of("Next", FieldType.OBJECT));
        assertThatThrownBy(() -> new TypeDef("Shop.Bad", TypeDef.Shape.CLASS, 32, 0, 0, 1, true, List.of(8), false, fields, null))
                .hasMessageContaining("its fields give BaseSize 24");
    }
}
