package main

import (
	"github.com/spf13/cobra"
)

// completionCommand is `fastmcp completion`: cobra's scripts for three
// shells, which ask the command itself for candidates (__complete).
func (a *app) completionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print the shell completion script",
		Long: `Print the script that completes fastmcp's commands and flags in bash, zsh or
fish. Load it in the current shell, or install it where the shell looks.`,
		Example: `  source <(fastmcp completion bash)                       # bash, this shell
  fastmcp completion bash > /etc/bash_completion.d/fastmcp  # bash, every shell
  fastmcp completion zsh > "${fpath[1]}/_fastmcp"           # zsh (compinit enabled)
  fastmcp completion fish > ~/.config/fish/completions/fastmcp.fish`,
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args: func(c *cobra.Command, args []string) error {
			if err := cobra.ExactArgs(1)(c, args); err != nil {
				return usage(err)
			}
			if err := cobra.OnlyValidArgs(c, args); err != nil {
				return usage(err)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(a.rawStdout, true)
			case "zsh":
				return root.GenZshCompletion(a.rawStdout)
			default:
				return root.GenFishCompletion(a.rawStdout, true)
			}
		},
	}
}
