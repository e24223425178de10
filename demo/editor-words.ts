/**
 * What the editor of a tested n8n line calls the things the demo talks about, so that the demo's
 * messages use the words on the screen. Measured in Chromium on n8n 2.8.4 and 2.41.1: both say
 * Publish, Published and Unpublish, and the trigger's panel has "Execute step", then "Listening for
 * test event" with a "Stop Listening" button; only where the workflows are differs.
 */
export interface EditorWords {
	/** The trigger panel's button that waits for one event and runs the workflow in the editor. */
	listenButton: string;
	/** Where the list of workflows is after logging in. */
	workflowsPage: string;
}

const WORDS_2_8: EditorWords = {
	listenButton: 'Execute step',
	workflowsPage: 'the Overview page that opens after login',
};

const WORDS_2_41: EditorWords = {
	listenButton: 'Execute step',
	workflowsPage: 'Overview; n8n opens on its Assistant page after login',
};

export function editorWords(n8nVersion: string): EditorWords {
	const [major, minor] = n8nVersion.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 41) ? WORDS_2_41 : WORDS_2_8;
}
