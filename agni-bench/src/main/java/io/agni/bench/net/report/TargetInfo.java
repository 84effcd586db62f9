package io.agni.bench.net.report;

import java.util.List;

/**
 * A target as the report describes it.
 *
 * @param name        its label.
 * @param description how it was given, without its name.
 * @param command     the command that started it, empty if the harness did not start it.
 * @param address     where it was measured.
 * @param pid         its process id, or -1.
 */
public record TargetInfo(String name, String description, List<String> command, String address, long pid)
{
    /**
     * Copies the command.
     */
    public TargetInfo
    {
        command = List.copyOf(command);
    }
}
