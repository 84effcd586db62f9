package io.agni.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Records what a decoder reports, copying each command's arguments (they are valid only inside the call), and
 * checks that nothing is reported after a protocol error.
 */
class RecordingListener implements RespDecoder.Listener
{
    /**
     * Something the decoder reported.
     */
    sealed interface Event permits Command, Error
    {
    }

    /**
     * A command, its arguments as ISO-8859-1 strings (one char per byte, so binary arguments compare exactly).
     *
     * @param args the arguments.
     */
    record Command(List<String> args) implements Event
    {
        static Command of(final String... args)
        {
            return new Command(List.of(args));
        }

        static Command of(final byte[]... args)
        {
            final List<String> strings = new ArrayList<>();
            for (final byte[] arg : args)
            {
                strings.add(new String(arg, StandardCharsets.ISO_8859_1));
            }
            return new Command(strings);
        }
    }

    /**
     * A protocol error.
     *
     * @param message its message.
     */
    record Error(String message) implements Event
    {
    }

    final List<Event> events = new ArrayList<>();
    private int stopEvery;
    private boolean stopped;
    private boolean failed;

    /**
     * @param stopEvery stop the decoder after every n-th command; 0 never.
     * @return this listener.
     */
    RecordingListener stopEvery(final int stopEvery)
    {
        this.stopEvery = stopEvery;
        return this;
    }

    /**
     * @return whether the last command asked the decoder to stop, clearing the flag.
     */
    boolean takeStopped()
    {
        final boolean result = stopped;
        stopped = false;
        return result;
    }

    List<Command> commands()
    {
        final List<Command> commands = new ArrayList<>();
        for (final Event event : events)
        {
            if (event instanceof Command command)
            {
                commands.add(command);
            }
        }
        return commands;
    }

    String errorMessage()
    {
        for (final Event event : events)
        {
            if (event instanceof Error error)
            {
                return error.message();
            }
        }
        return null;
    }

    @Override
    public boolean onCommand(final RespArgs args)
    {
        if (failed)
        {
            throw new AssertionError("command after a protocol error: " + args);
        }
        final List<String> copy = new ArrayList<>(args.count());
        for (int i = 0; i < args.count(); i++)
        {
            copy.add(new String(args.copy(i), StandardCharsets.ISO_8859_1));
        }
        events.add(new Command(copy));
        stopped = stopEvery > 0 && commands().size() % stopEvery == 0;
        return !stopped;
    }

    @Override
    public void onProtocolError(final String message)
    {
        if (failed)
        {
            throw new AssertionError("second protocol error: " + message);
        }
        failed = true;
        events.add(new Error(message));
    }
}
