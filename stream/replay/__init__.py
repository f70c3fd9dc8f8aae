"""Re-verifying past answers after a corpus update, group-less, with a diff report."""
