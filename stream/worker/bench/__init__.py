"""`citegate bench`: the stage measured side by side with the floors it is judged against."""
