package cli

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/spf13/cobra"
)

// NewCmdExplain builds profan explain.
func NewCmdExplain(io *IOStreams) *cobra.Command {
	var list, listMetrics bool
	cmd := &cobra.Command{
		Use:   "explain [<rule>]",
		Short: "Print the documentation of a rule, or list the rules or metrics",
		Example: `  profan explain uncoalesced-global
  profan explain --list
  profan explain --metrics`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if listMetrics {
				for _, d := range metrics.Defs {
					unit := d.Unit
					if unit == "" {
						unit = "1"
					}
					fmt.Fprintf(io.Out, "%-38s %-8s %s\n", d.Name, unit, d.Doc)
				}
				return nil
			}
			if list || len(args) == 0 {
				for _, r := range rules.All {
					fmt.Fprintf(io.Out, "%-22s %-8s %s\n", r.ID, r.Severity, r.Title)
				}
				return nil
			}
			r, ok := rules.ByID(args[0])
			if !ok {
				return unknownError("rule", args[0], ruleIDs(), "profan explain --list shows them")
			}
			fmt.Fprint(io.Out, RuleDoc(r))
			return nil
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the rules")
	cmd.Flags().BoolVar(&listMetrics, "metrics", false, "list the canonical metrics with their units")
	return cmd
}

// RuleDoc renders a rule's documentation as plain text.
func RuleDoc(r *rules.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\nseverity: %s\n", r.ID, r.Title, r.Severity)
	if r.CheckApp != nil {
		fmt.Fprintf(&b, "application rule: reads the capture's %s\n", strings.ReplaceAll(strings.Join(append(append([]string(nil), r.Requires...), r.Optional...), ", "), "|", " or "))
	} else if len(r.Requires) > 0 {
		fmt.Fprintf(&b, "needs: %s\n", r.Needs())
	} else {
		b.WriteString("needs: host transfer rows (nvprof gpu-trace or API summary)\n")
	}
	fmt.Fprintf(&b, "\n%s\n", r.Text)
	if r.Before != "" {
		fmt.Fprintf(&b, "\nBefore:\n%s\n", indent(r.Before))
	}
	if r.After != "" {
		fmt.Fprintf(&b, "\nAfter:\n%s\n", indent(r.After))
	}
	return b.String()
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}
