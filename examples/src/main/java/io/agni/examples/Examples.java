package io.agni.examples;

import java.util.Arrays;

/**
 * The examples jar's entry point: {@code java -jar agni-examples.jar [example [its arguments]]} runs one example,
 * {@link EmbeddedQuickstart} when none is named. One jar, one command per example, and the jar's manifest carries
 * Agrona's {@code Add-Opens}, which a {@code java -cp} command line would have to repeat.
 */
public final class Examples
{
    private static final String LIST =
        "EmbeddedQuickstart, DurableQuickstart [directory], ServeOverTcp [port [seconds]], RemoteClient [host [port]]";

    private Examples()
    {
    }

    /**
     * @param args the example's name (the class's simple name), then its arguments.
     * @throws InterruptedException if an example that waits is interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final String name = args.length > 0 ? args[0] : "EmbeddedQuickstart";
        final String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        switch (name)
        {
            case "EmbeddedQuickstart":
                EmbeddedQuickstart.main(rest);
                break;
            case "DurableQuickstart":
                DurableQuickstart.main(rest);
                break;
            case "ServeOverTcp":
                ServeOverTcp.main(rest);
                break;
            case "RemoteClient":
                RemoteClient.main(rest);
                break;
            default:
                System.err.println("no example named " + name + "; the examples: " + LIST);
                System.exit(2);
        }
    }
}
