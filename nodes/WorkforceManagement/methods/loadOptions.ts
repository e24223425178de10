export {
	endpointEventTypeOptions as getEndpointEventTypes,
	eventTypeOptions as getEventTypes,
} from '../../shared/eventCatalog';
