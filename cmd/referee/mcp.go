//go:build !nomcp

package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"referee/mcpserver"
)

// envMCPToken is the bearer token of `referee mcp --http` when --token is not given
// (an environment variable keeps it out of the process list).
const envMCPToken = "REFEREE_MCP_TOKEN"

func (a *app) mcpCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "mcp",
		Example: "  referee mcp --contents ./contents          # stdio, as .mcp.json starts it\n" +
			"  referee mcp --http 127.0.0.1:8765          # streamable HTTP with a bearer token",
		Short: "Serve the skills and the folder to agents as an MCP server (stdio, or --http)",
		Long: "mcp serves the contents folder over the Model Context Protocol: every skill as a tool (same\n" +
			"preconditions and change batches as `referee skill`), the read tools status, show, sentences,\n" +
			"check, similar and log, and the objects as resources referee://statement/s-007.\n\n" +
			"By default it speaks JSON-RPC on stdin/stdout, as Claude Code's .mcp.json starts it. With\n" +
			"--http ADDR it serves streamable HTTP on ADDR (loopback only unless --allow-remote), and\n" +
			"every request must carry Authorization: Bearer <token> (--token, $" + envMCPToken + ", or one\n" +
			"generated and printed on stderr; one given must hold at least 128 bits, e.g. 32 hex digits).\n" +
			"Requests with an Origin header are refused unless --allow-origin names it. Connections, MCP\n" +
			"sessions and the time each may take are bounded: see docs/security.md.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	f := cmd.Flags()
	actor := f.String("actor", "", "who makes the changes (default $REFEREE_ACTOR, else the client's name from the MCP handshake)")
	httpAddr := f.String("http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8765) instead of stdio")
	token := f.String("token", "", "the bearer token --http requires (default $"+envMCPToken+", else a new one printed on stderr)")
	allowRemote := f.Bool("allow-remote", false, "let --http listen on an address that is not loopback")
	allowOrigin := f.StringArray("allow-origin", nil, "take --http requests from this browser origin, e.g. http://localhost:3000 (repeat; none by default)")
	maxMessage := f.Int("max-message", mcpserver.DefaultMaxMessage, "the largest JSON-RPC message taken, in bytes")
	cmd.RunE = func(*cobra.Command, []string) error {
		if *maxMessage < 1024 {
			return usagef("--max-message: %d bytes is too small (at least 1024)", *maxMessage)
		}
		if err := checkFolder(*contents); err != nil {
			return err // the folder itself is read once, by the server's engine
		}
		who := *actor
		if who == "" {
			who = os.Getenv(envActor)
		}
		opts, err := options("", "") // for $REFEREE_NOW only: the actor is worked out above
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		srv := mcpserver.New(*contents, mcpserver.Options{Actor: who, Now: opts.Now, Context: ctx})
		if *httpAddr == "" {
			return mcpserver.ServeStdio(ctx, srv, a.stdin, a.stdout, *maxMessage)
		}
		addr, err := mcpserver.ListenAddr(*httpAddr, *allowRemote)
		if err != nil {
			return usagef("%v", err)
		}
		tok := *token
		if tok == "" {
			tok = os.Getenv(envMCPToken)
		}
		if tok != "" {
			if err := mcpserver.CheckToken(tok); err != nil {
				return usagef("%v", err)
			}
		}
		for _, o := range *allowOrigin {
			if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" {
				return usagef("--allow-origin: %q is not an origin (scheme://host[:port], e.g. http://localhost:3000)", o)
			}
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return err
		}
		ln := mcpserver.LimitListener(l, 0, 0)
		if tok == "" {
			tok = mcpserver.NewToken()
			fmt.Fprintf(a.stderr, "referee mcp: token %s\n", tok)
		}
		fmt.Fprintf(a.stderr, "referee mcp: serving %s on http://%s/ (Authorization: Bearer <token>)\n", *contents, ln.Addr())
		hs := mcpserver.NewHTTPServer(mcpserver.HTTPHandler(srv, mcpserver.HTTPOptions{
			Token: tok, MaxMessage: *maxMessage, AllowOrigins: *allowOrigin}))
		go func() {
			<-ctx.Done()
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hs.Shutdown(shut)
		}()
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	return cmd
}
