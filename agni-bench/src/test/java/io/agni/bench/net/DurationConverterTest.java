package io.agni.bench.net;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DurationConverterTest
{
    @Test
    void readsTheUsualForms()
    {
        assertEquals(Duration.ofMillis(500), DurationConverter.parse("500ms"));
        assertEquals(Duration.ofSeconds(5), DurationConverter.parse("5s"));
        assertEquals(Duration.ofMillis(1500), DurationConverter.parse("1.5s"));
        assertEquals(Duration.ofMinutes(2), DurationConverter.parse("2m"));
        assertEquals(Duration.ofHours(1), DurationConverter.parse("1h"));
        assertEquals(Duration.ofSeconds(7), DurationConverter.parse("7"));
        assertEquals(Duration.ofSeconds(5), DurationConverter.parse("PT5S"));
    }

    @Test
    void rejectsWhatIsNoDuration()
    {
        assertEquals("not a duration: 'soon' (expected e.g. 500ms, 5s, 1.5s, 2m, 1h or PT5S)",
            assertThrows(CommandLine.TypeConversionException.class, () -> DurationConverter.parse("soon"))
                .getMessage());
    }
}
