package io.clrheap.emulator.scenario;

/**
 * A field a scenario type declares: its name, declared type, and whether it is static (a static has a FieldDesc
 * and a Field row but no storage in the object).
 */
public record FieldSpec(String name, FieldType type, boolean isStatic) {

    public FieldSpec {
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("field name '" + name + "': an identifier of at most 64 characters");
        }
    }

    /** An instance field. */
    public static FieldSpec of(String name, FieldType type) {
        return new FieldSpec(name, type, false);
    }

    /** A static field. */
    public static FieldSpec ofStatic(String name, FieldType type) {
        return new FieldSpec(name, type, true);
    }
}
