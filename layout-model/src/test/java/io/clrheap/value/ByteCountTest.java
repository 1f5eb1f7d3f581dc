package io.clrheap.value;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Sizes as users type them, read one way everywhere. */
class ByteCountTest {

    @Test
    void decimalHexAndBinarySuffixesAreBytes() {
        assertThat(ByteCount.parse("10240")).hasValue(10240);
        assertThat(ByteCount.parse("0x2800")).hasValue(10240);
        assertThat(ByteCount.parse("10k")).hasValue(10240);
        assertThat(ByteCount.parse("10KB")).hasValue(10240);
        assertThat(ByteCount.parse("64m")).hasValue(64L << 20);
        assertThat(ByteCount.parse("4g")).hasValue(4L << 30);
        assertThat(ByteCount.parse("512b")).hasValue(512);
    }

    @Test
    void whatIsNoSizeIsEmpty() {
        assertThat(ByteCount.parse("ten")).isEmpty();
        assertThat(ByteCount.parse("1.5m")).isEmpty();
        assertThat(ByteCount.parse("-1")).isEmpty();
        assertThat(ByteCount.parse("")).isEmpty();
        assertThat(ByteCount.parse("0xffffffffffffffff")).as("above Long.MAX_VALUE").isEmpty();
        assertThat(ByteCount.parse("9999999999g")).as("overflows").isEmpty();
    }
}
