package io.clrheap.emulator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Type names a scenario may use: those the runtime composes back from metadata exactly. */
class TypeNameTest {

    @Test
    void aNameSplitsIntoNamespaceNestingAndArraySuffixes() {
        TypeName n = TypeName.parse("Shop.Sales.Cart+Line+Note[][*][,]");
        assertThat(n.namespace()).isEqualTo("Shop.Sales");
        assertThat(n.nesting()).containsExactly("Cart", "Line", "Note");
        assertThat(n.suffixes()).containsExactly("[]", "[*]", "[,]");
        assertThat(n.definitionName()).isEqualTo("Shop.Sales.Cart+Line+Note");
        assertThat(TypeName.parse("Shop.Sales.Cart+Line+Note").enclosing().definitionName()).isEqualTo("Shop.Sales.Cart+Line");
        assertThat(TypeName.parse("Node").namespace()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"A,B", "List`1[System.Int32]", "A[x]", "A&", "A*", "A\\B", "A..B", ".A", "A.", "A+", "A+B.C", "A B", "[]"})
    void aNameTheRuntimeWouldPrintDifferentlyIsRefusedNamingIt(String name) {
        assertThatThrownBy(() -> TypeName.parse(name)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + name + "'");
    }

    @Test
    void anArrayIsNamedWithItsShapesSuffix() {
        assertThatThrownBy(() -> TypeDef.arrayOf("Shop.Tag", 4)).hasMessageContaining("suffix []");
        assertThatThrownBy(() -> TypeDef.mdArray("Shop.Tag[,]", 4, 3)).hasMessageContaining("suffix [,,]");
        assertThatThrownBy(() -> TypeDef.mdArray("Shop.Tag[]", 4, 1)).hasMessageContaining("suffix [*]");
        assertThatThrownBy(() -> TypeDef.ofClass("Shop.Tag[]", 24, 0)).hasMessageContaining("no array suffix");
        assertThat(TypeDef.mdArray("Shop.Tag[*]", 4, 1).typeName().lastSuffix()).isEqualTo("[*]");
    }

    @Test
    void everyBuiltInScenariosTypesAreAccepted() {
        for (Scenario s : Scenarios.all()) {
            s.types().forEach(TypeDef::typeName);
        }
        TypeDef.BUILT_IN.forEach(TypeDef::typeName);
    }
}
