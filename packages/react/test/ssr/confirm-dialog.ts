import { vi } from "vitest";

/**
 * Resolves once a case that opens the confirm dialog shows it. The dialog's library loads on the first mount of
 * `ApprovalCard.Confirm` (an import, not a render), so the dialog appears a moment after mounting or hydrating;
 * how long depends on the machine, so the tests wait for the dialog itself. Other cases resolve at once.
 */
export async function confirmDialogOpen(caseName: string): Promise<void> {
  if (!/confirm dialog open/.test(caseName)) return;
  await vi.waitFor(
    () => {
      if (!document.querySelector('[role="alertdialog"]'))
        throw new Error("the confirm dialog is not open yet");
    },
    { timeout: 30_000, interval: 20 },
  );
}
